/** tcp-in-flight.ts: /proc/net/tcp's lines, and bytes on their way between two ends on this host. */
import { expect, test } from "bun:test";
import { parseTcpTable, tcpInFlight } from "../../src/session/ready/tcp-in-flight.ts";

const header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";
const line = (sl: number, local: string, remote: string, tx: number, inode: number) =>
  `   ${sl}: ${local} ${remote} 01 ${tx.toString(16).padStart(8, "0")}:00000000 01:00000014 00000000     0        0 ${inode} 1 0000000000000000 20 4 30 10 -1`;
const CLIENT = "0100007F:A000";
const SERVER = "0100007F:1F90";

test("a socket's peer on this host with bytes not yet acknowledged: in flight, either way", () => {
  const quiet = parseTcpTable([header, line(0, CLIENT, SERVER, 0, 11), line(1, SERVER, CLIENT, 0, 12)].join("\n"));
  expect(tcpInFlight(quiet, 11)).toBe(false);
  const held = parseTcpTable([header, line(0, CLIENT, SERVER, 1, 11), line(1, SERVER, CLIENT, 0, 12)].join("\n"));
  expect(tcpInFlight(held, 11)).toBe(true); // its own request, held by Nagle
  expect(tcpInFlight(held, 12)).toBe(true); // the server waits for it
});

test("a peer elsewhere, a listening socket or an unknown inode tells nothing", () => {
  const table = parseTcpTable(
    [header, line(0, CLIENT, "0A000001:0050", 5, 21), line(1, SERVER, "00000000:0000", 0, 22)].join("\n"),
  );
  expect(tcpInFlight(table, 21)).toBe(false);
  expect(tcpInFlight(table, 22)).toBe(false);
  expect(tcpInFlight(table, 99)).toBe(false);
  expect(parseTcpTable("garbage\n1 2 3").size).toBe(0);
});
