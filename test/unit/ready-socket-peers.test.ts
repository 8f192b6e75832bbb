/** The sock_diag request for a unix socket's peer, and the reading of the kernel's answer (unix_diag.h). */
import { expect, test } from "bun:test";
import { parsePeerReply, peerRequest } from "../../src/session/ready/socket-peers.ts";

/** A reply: nlmsghdr, unix_diag_msg, then the attributes given as [type, u32 payload]. */
function reply(type: number, attributes: [number, number][]): Uint8Array {
  const bytes = new Uint8Array(32 + attributes.length * 8);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, bytes.length, true);
  view.setUint16(4, type, true);
  attributes.forEach(([kind, value], i) => {
    view.setUint16(32 + i * 8, 8, true);
    view.setUint16(34 + i * 8, kind, true);
    view.setUint32(36 + i * 8, value, true);
  });
  return bytes;
}

test("the request names one unix socket by inode, asks for its peer and takes no cookie", () => {
  const view = new DataView(peerRequest(5172296, 7).buffer);
  expect(view.getUint32(0, true)).toBe(40); // nlmsghdr + unix_diag_req
  expect(view.getUint16(4, true)).toBe(20); // SOCK_DIAG_BY_FAMILY
  expect(view.getUint16(6, true)).toBe(1); // NLM_F_REQUEST: one socket, no dump
  expect(view.getUint32(8, true)).toBe(7);
  expect(view.getUint8(16)).toBe(1); // AF_UNIX
  expect(view.getUint32(24, true)).toBe(5172296);
  expect(view.getUint32(28, true)).toBe(4); // UDIAG_SHOW_PEER
  expect([view.getUint32(32, true), view.getUint32(36, true)]).toEqual([0xffffffff, 0xffffffff]);
});

test("the peer is the UNIX_DIAG_PEER attribute, after any other", () => {
  expect(parsePeerReply(reply(20, [[2, 5172297]]))).toBe(5172297);
  expect(
    parsePeerReply(
      reply(20, [
        [4, 0],
        [2, 42],
      ]),
    ),
  ).toBe(42); // UNIX_DIAG_RQLEN first
});

test("a socket with no peer is null; an error or a short reply is undefined", () => {
  expect(parsePeerReply(reply(20, []))).toBeNull();
  expect(parsePeerReply(reply(2, []))).toBeUndefined(); // NLMSG_ERROR: no such socket
  expect(parsePeerReply(new Uint8Array(8))).toBeUndefined();
});
