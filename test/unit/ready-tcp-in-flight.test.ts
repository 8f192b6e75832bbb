/** tcp-in-flight.ts: /proc/net/tcp's lines, and bytes on their way between two ends on this host. */
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTcpTable, tcpInFlight, tcpTablesAt } from "../../src/session/ready/tcp-in-flight.ts";

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

test("a table is read 256 KiB at most, in whole lines: sockets past the bound tell nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "tcp-table-"));
  try {
    // 2,000 sockets of one line length each (about 300 KiB, past the bound), the header padded so
    // that the bound falls inside a line's inode, where a cut line would read as a smaller one.
    const first = line(1000, CLIENT, SERVER, 1, 1_000_000);
    const inodeAt = first.indexOf(" 1000000 ") + 1;
    const bound = 256 * 1024;
    const size = first.length + 1;
    const pad = (((bound - header.length - 1 - inodeAt - 3) % size) + size) % size;
    const lines = [header + " ".repeat(pad)];
    for (let i = 0; i < 2000; i++) lines.push(line(1000 + i, CLIENT, SERVER, 1, 1_000_000 + i));
    const text = `${lines.join("\n")}\n`;
    expect(text.length).toBeGreaterThan(bound);
    expect(text.slice(text.lastIndexOf("\n", bound - 1) + 1, bound)).toMatch(/ 100$/);
    writeFileSync(join(dir, "tcp"), text);
    const table = tcpTablesAt([join(dir, "tcp"), join(dir, "absent")]);
    expect(table.size).toBeGreaterThan(1000);
    expect(table.size).toBeLessThan(2000);
    // Every inode read is a whole one: the line cut at the bound is left out, not read as a prefix.
    for (const inode of table.keys()) expect(inode).toBeGreaterThanOrEqual(1_000_000);
    expect(table.has(1_000_000 + table.size - 1)).toBe(true);
    expect(table.has(1_000_000 + table.size)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
