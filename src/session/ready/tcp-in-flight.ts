/**
 * Bytes on their way over a TCP connection whose two ends are both on this host: a thread waiting in
 * a read of one end waits for them, and they arrive with no process running (Nagle's algorithm holds
 * a small segment until the last is acknowledged, and the peer delays its acknowledgement up to
 * 40 ms). /proc/<pid>/net/tcp and tcp6 (proc(5)) show each socket's addresses, its inode, and its
 * tx_queue: bytes written and not yet acknowledged. A socket whose peer is elsewhere shows no peer
 * here, and tells nothing.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { procCost } from "./proc.ts";

/** A netns's TCP table is read this far at most (about 1,700 sockets); a socket past it tells nothing. */
const MAX_TABLE_BYTES = 256 * 1024;
/** Where the tables are read into: one buffer, reused (a look reads them synchronously). */
let buffer: Buffer | undefined;

interface TcpSocket {
  local: string;
  remote: string;
  txQueue: number;
}

/** The TCP sockets of `pid`'s network namespace, by inode. */
export type TcpTable = Map<number, TcpSocket>;

/** Parse /proc/net/tcp or tcp6 text into `into`: "sl local remote st tx:rx tr:when retrnsmt uid timeout inode". */
export function parseTcpTable(text: string, into: TcpTable = new Map()): TcpTable {
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const inode = Number(fields[9]);
    const txQueue = Number.parseInt(fields[4]!.split(":")[0]!, 16);
    if (inode > 0 && Number.isFinite(txQueue)) into.set(inode, { local: fields[1]!, remote: fields[2]!, txQueue });
  }
  return into;
}

/** Both TCP tables of `pid`'s namespace, bounded; empty when they cannot be read. */
export function tcpTableOf(pid: number): TcpTable {
  return tcpTablesAt([`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`]);
}

/** The TCP tables in `paths`, each read MAX_TABLE_BYTES at most (whole lines only). */
export function tcpTablesAt(paths: string[]): TcpTable {
  const table: TcpTable = new Map();
  for (const path of paths) {
    const text = readBounded(path);
    if (text !== undefined) parseTcpTable(text, table);
  }
  return table;
}

/**
 * Are bytes on their way between TCP socket `inode` and its peer, both in `table`: written by either
 * end and not yet acknowledged?
 */
export function tcpInFlight(table: TcpTable, inode: number): boolean {
  const socket = table.get(inode);
  if (socket === undefined) return false;
  for (const other of table.values())
    if (other.local === socket.remote && other.remote === socket.local) return socket.txQueue > 0 || other.txQueue > 0;
  return false;
}

function readBounded(path: string): string | undefined {
  const start = performance.now();
  procCost.reads++;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    procCost.ms += performance.now() - start;
    return undefined;
  }
  try {
    buffer ??= Buffer.alloc(MAX_TABLE_BYTES);
    let length = 0;
    for (let got = 1; got > 0 && length < buffer.length; length += got)
      got = readSync(fd, buffer, length, buffer.length - length, null);
    // Cut at the bound, the last line is partial (its inode a prefix of the real one): left out.
    if (length === buffer.length) length = buffer.lastIndexOf(10, length - 1) + 1;
    return buffer.toString("latin1", 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
    procCost.ms += performance.now() - start;
  }
}
