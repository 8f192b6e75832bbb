/** The stdio transport's line limit, on in-memory streams: what it keeps while skipping an oversized line. */
import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { LineLimitedStdioTransport } from "../../src/stdio-transport.ts";

function harness(limit: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineLimitedStdioTransport(stdin, stdout, limit);
  const received: unknown[] = [];
  transport.onmessage = (message) => received.push(message);
  const written = () =>
    String(stdout.read() ?? "")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { stdin, transport, received, written };
}

test("an oversized line is skipped as it streams in: nothing of it is held past the limit", async () => {
  const { stdin, transport, received, written } = harness(1000);
  await transport.start();
  const head = '{"jsonrpc":"2.0","method":"tools/call","params":{"text":"';
  const end = '"},"id":"req-7"}';
  stdin.write(head);
  for (let i = 0; i < 100; i++) {
    stdin.write("y".repeat(10_000));
    // While skipping, no piece of the line is kept (a bounded tail for the id is all).
    expect((transport as unknown as { pieces: Buffer[] }).pieces.length).toBe(0);
  }
  stdin.write(`${end}\n{"jsonrpc":"2.0","id":8,"method":"ping"}\n`);
  expect(received).toEqual([{ jsonrpc: "2.0", id: 8, method: "ping" }]);
  const [reply] = written();
  expect(reply.id).toBe("req-7");
  expect(reply.error.data).toEqual({ limitBytes: 1000, receivedBytes: head.length + 1_000_000 + end.length });
});

test("a line of exactly the limit is accepted; one byte more is refused", async () => {
  const message = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const { stdin, transport, received, written } = harness(message.length);
  await transport.start();
  stdin.write(`${message}\n`);
  stdin.write(`${message.replace("ping", "pingx")}\n`);
  expect(received).toHaveLength(1);
  expect(written()[0].error.code).toBe(-32600);
});

test("an id nested in the params is not taken for the request's id", async () => {
  const { stdin, transport, written } = harness(100);
  await transport.start();
  stdin.write(`{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"id":5,"pad":"${"z".repeat(200)}"}}}\n`);
  const [notice] = written();
  expect(notice.method).toBe("notifications/message");
  expect(notice.id).toBeUndefined();
});
