// The web viewer page: a session list, the attached session's screen in xterm.js, and takeover.
// The server sends a full repaint on attach and resize, then live output; this page only renders.
(async () => {
  "use strict";
  // xterm.js measures the font when it opens, so load the bundled one first.
  await Promise.all([
    document.fonts.load('14px "tui-tester mono"'),
    document.fonts.load('bold 14px "tui-tester mono"'),
  ]).catch(() => undefined);
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const term = new Terminal({
    cols: 80,
    rows: 24,
    disableStdin: true,
    scrollback: 1000,
    fontFamily: '"tui-tester mono", "DejaVu Sans Mono", Menlo, Consolas, monospace',
    fontSize: 14,
    lineHeight: 1.15, // at 1.0 the DOM renderer clips underscores at the bottom of the row
    theme: { foreground: "#e5e5e5", background: "#000000", cursor: "#e5e5e5" },
  });
  term.open($("terminal"));

  // This terminal is a mirror: the server's emulator already answers the app's queries. Answering
  // again would type a second reply into the program while a human holds control.
  const swallow = () => true;
  for (const id of [
    { final: "c" },
    { prefix: ">", final: "c" },
    { prefix: "=", final: "c" },
    { final: "n" },
    { prefix: "?", final: "n" },
    { intermediates: "$", final: "p" },
    { prefix: "?", intermediates: "$", final: "p" },
    { prefix: ">", final: "q" },
    { prefix: "?", final: "u" },
  ]) {
    term.parser.registerCsiHandler(id, swallow); // DA1-3, DSR/CPR, DECRQM, XTVERSION, kitty flags query
  }
  term.parser.registerDcsHandler({ intermediates: "$", final: "q" }, swallow); // DECRQSS
  for (const osc of [4, 10, 11, 12]) term.parser.registerOscHandler(osc, (data) => data.split(";").includes("?")); // colour queries only

  let ws;
  let attached = null;
  let wanted = decodeURIComponent(location.hash.slice(1)) || null;
  let current = null; // the attached session's list entry

  const send = (message) => ws && ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(message));
  const say = (text) => ($("message").textContent = text);

  function attach(id) {
    wanted = id;
    history.replaceState(null, "", `#${encodeURIComponent(id)}`);
    send({ type: "attach", id });
  }

  function describeState(s) {
    if (s.state !== "exited") return s.state;
    return s.signal ? `exited (${s.signal})` : `exited (code ${s.exitCode})`;
  }

  function renderList(sessions) {
    const list = $("sessions");
    list.replaceChildren();
    for (const s of sessions) {
      const li = document.createElement("li");
      li.dataset.id = s.id;
      li.className = `${s.state}${s.id === attached ? " attached" : ""}`;
      const cmd = document.createElement("span");
      cmd.className = "cmd";
      cmd.textContent = s.name || s.command;
      const id = document.createElement("span");
      id.className = "id";
      id.textContent = `${s.id} · ${s.cols}×${s.rows}`;
      li.append(cmd, id);
      if (s.state === "exited") li.append(badge(describeState(s), "exited"));
      if (s.control !== "agent")
        li.append(badge(s.control === "you" ? "you have control" : "human in control", "human"));
      li.addEventListener("click", () => attach(s.id));
      window.tuiPlayback.decorate(li, s, token); // the session's recordings, playable (playback.js)
      list.append(li);
    }
  }

  function badge(text, kind) {
    const b = document.createElement("span");
    b.className = `badge ${kind}`;
    b.textContent = text;
    return b;
  }

  function renderHeader() {
    const s = current;
    $("title").textContent = s ? s.name || s.command : "No session";
    $("size").textContent = s ? `${s.cols}×${s.rows}` : "";
    $("state").textContent = s ? describeState(s) : "";
    const mine = !!s && s.control === "you";
    const control = $("control");
    control.textContent = !s
      ? ""
      : mine
        ? "You have control: keys, paste and mouse go to the program"
        : s.control === "agent"
          ? "Agent in control (watching)"
          : "Another viewer has control";
    control.className = s && s.control !== "agent" ? "human" : "";
    $("take").hidden = mine;
    $("take").disabled = !s || s.state === "exited" || s.control !== "agent";
    $("release").hidden = !mine;
    $("fit").hidden = !mine;
    $("terminal").className = mine ? "human" : "";
    term.options.disableStdin = !mine;
    if (mine) term.focus();
    document.title = s ? `${s.name || s.command} · tui-tester` : "tui-tester viewer";
  }

  function onMessage(event) {
    const m = JSON.parse(event.data);
    switch (m.type) {
      case "sessions": {
        attached = m.attached;
        current = m.sessions.find((s) => s.id === attached) || null;
        renderList(m.sessions);
        renderHeader();
        if (!attached) {
          const pick = m.sessions.find((s) => s.id === wanted) || m.sessions.find((s) => s.state !== "exited");
          if (pick) attach(pick.id);
          else
            say(
              m.sessions.length ? "Pick a session." : "No sessions yet; they appear here when the agent starts them.",
            );
        }
        break;
      }
      case "repaint":
        if (m.id !== attached && m.id !== wanted) return;
        term.reset();
        term.resize(m.cols, m.rows);
        term.write(m.data);
        say(`Watching ${m.id} live.`);
        break;
      case "output":
        term.write(m.data);
        break;
      case "exit":
        say(`${m.id} has exited (${m.signal || `code ${m.exitCode}`}).`);
        break;
      case "error":
        say(m.message);
        break;
    }
  }

  function connect() {
    ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
    ws.onopen = () => {
      say("Connected.");
      attached = null;
    };
    ws.onmessage = onMessage;
    ws.onclose = () => {
      say("Disconnected from tui-tester (the server stopped, or the token is wrong).");
      current = null;
      renderHeader();
    };
  }

  term.onData((data) => current && current.control === "you" && send({ type: "input", data }));
  term.onBinary((data) => current && current.control === "you" && send({ type: "input", data, binary: true }));
  $("take").addEventListener("click", () => send({ type: "take" }));
  $("release").addEventListener("click", () => send({ type: "release" }));
  // Only the human holding control may resize the PTY; the size follows from the rendered cell size.
  $("fit").addEventListener("click", () => {
    const screen = $("terminal").querySelector(".xterm-screen");
    if (!screen) return;
    const cellWidth = screen.clientWidth / term.cols;
    const cellHeight = screen.clientHeight / term.rows;
    const box = $("screen");
    const cols = Math.max(20, Math.floor((box.clientWidth - 32) / cellWidth));
    const rows = Math.max(5, Math.floor((box.clientHeight - 32) / cellHeight));
    send({ type: "resize", cols, rows });
  });
  connect();
})();
