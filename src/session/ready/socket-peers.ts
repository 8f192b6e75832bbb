/**
 * The peer of a connected unix socket, by inode: /proc does not show it, the kernel's sock_diag
 * netlink interface does (sock_diag(7), include/uapi/linux/unix_diag.h: a SOCK_DIAG_BY_FAMILY
 * request for one inode with UDIAG_SHOW_PEER answers with a UNIX_DIAG_PEER attribute). A connected
 * socket keeps its peer, so each answer is remembered, as is a socket the kernel cannot answer for
 * (not a unix socket), at most MAX_REMEMBERED inodes.
 */
import { FFIType, ptr } from "bun:ffi";
import { loadLibc } from "../../util/libc.ts";
import { procCost } from "./proc.ts";

const AF_NETLINK = 16;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_CLOEXEC = 0o2000000;
const NETLINK_SOCK_DIAG = 4;
const SOCK_DIAG_BY_FAMILY = 20;
const NLM_F_REQUEST = 1;
const NLMSG_ERROR = 2;
const MSG_DONTWAIT = 0x40;
const UDIAG_SHOW_PEER = 4;
const UNIX_DIAG_PEER = 2;
/** INET_DIAG_NOCOOKIE: the request names the socket by inode alone. */
const NO_COOKIE = 0xffffffff;
/** nlmsghdr (16 bytes) + unix_diag_req (24 bytes). */
const REQUEST_BYTES = 40;
/** nlmsghdr (16 bytes) + unix_diag_msg (16 bytes), then the attributes. */
const ATTRIBUTES_AT = 32;
const MAX_REMEMBERED = 1024;

const symbols = {
  socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  send: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i64 },
  recv: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i64 },
  close: { args: [FFIType.i32], returns: FFIType.i32 },
} as const;
let libc: { loaded: ReturnType<typeof loadLibc<typeof symbols>> } | undefined;
const remembered = new Map<number, number | null | undefined>();
let sequence = 0;

/** The request for socket `inode`'s peer (nlmsghdr, then unix_diag_req; host byte order). */
export function peerRequest(inode: number, seq: number): Uint8Array {
  const bytes = new Uint8Array(REQUEST_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, REQUEST_BYTES, true);
  view.setUint16(4, SOCK_DIAG_BY_FAMILY, true);
  view.setUint16(6, NLM_F_REQUEST, true);
  view.setUint32(8, seq, true);
  bytes[16] = AF_UNIX;
  view.setUint32(20, 0xffffffff, true); // every state
  view.setUint32(24, inode, true);
  view.setUint32(28, UDIAG_SHOW_PEER, true);
  view.setUint32(32, NO_COOKIE, true);
  view.setUint32(36, NO_COOKIE, true);
  return bytes;
}

/** The peer inode in a reply to peerRequest; null for a socket with no peer, undefined for an error. */
export function parsePeerReply(reply: Uint8Array): number | null | undefined {
  if (reply.length < 16) return undefined;
  const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
  const length = Math.min(view.getUint32(0, true), reply.length);
  if (view.getUint16(4, true) === NLMSG_ERROR || length < ATTRIBUTES_AT) return undefined;
  for (let at = ATTRIBUTES_AT; at + 4 <= length; ) {
    const size = view.getUint16(at, true);
    if (size < 4) break;
    if (view.getUint16(at + 2, true) === UNIX_DIAG_PEER && size >= 8) return view.getUint32(at + 4, true);
    at += (size + 3) & ~3;
  }
  return null;
}

/**
 * The inode of the peer of unix socket `inode`: null when it has none (a listening or unconnected
 * socket), undefined when it cannot be told (not a unix socket, no libc, no sock_diag).
 */
export function unixPeer(inode: number): number | null | undefined {
  if (remembered.has(inode)) return remembered.get(inode);
  const peer = askKernel(inode);
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(inode, peer);
  return peer;
}

function askKernel(inode: number): number | null | undefined {
  const c = (libc ??= { loaded: loadLibc(symbols) }).loaded;
  if (c === undefined) return undefined;
  const start = performance.now();
  procCost.reads++;
  const fd = c.socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (fd < 0) return undefined;
  try {
    sequence = (sequence + 1) >>> 0;
    const request = peerRequest(inode, sequence);
    if (Number(c.send(fd, ptr(request), request.length, 0)) !== request.length) return undefined;
    const reply = new Uint8Array(1024);
    // The kernel answers within send(): nothing to wait for.
    const got = Number(c.recv(fd, ptr(reply), reply.length, MSG_DONTWAIT));
    return got > 0 ? parsePeerReply(reply.subarray(0, got)) : undefined;
  } finally {
    c.close(fd);
    procCost.ms += performance.now() - start;
  }
}
