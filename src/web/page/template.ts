/** The viewer page. {{TOKEN}} is replaced per server; everything dynamic is set with textContent by viewer.js. */
export const PAGE_TEMPLATE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>tui-tester viewer</title>
<link rel="stylesheet" href="/xterm.css?token={{TOKEN}}">
<link rel="stylesheet" href="/player.css?token={{TOKEN}}">
<style>
  @font-face { font-family: "tui-tester mono";\
 src: url("/mono.ttf?token={{TOKEN}}") format("truetype"); font-weight: normal; }
  @font-face { font-family: "tui-tester mono";\
 src: url("/mono-bold.ttf?token={{TOKEN}}") format("truetype"); font-weight: bold; }
  :root { color-scheme: dark; --bg: #111; --panel: #1b1b1b; --line: #333; --text: #ddd;\
 --muted: #888; --accent: #4ea1ff; --human: #f5a623; }
  * { box-sizing: border-box; }
  body { margin: 0; display: flex; height: 100vh; background: var(--bg); color: var(--text);\
 font: 14px system-ui, sans-serif; }
  aside { width: 260px; flex: none; background: var(--panel); border-right: 1px solid var(--line); overflow-y: auto; }
  aside h1 { font-size: 15px; margin: 0; padding: 12px 14px; border-bottom: 1px solid var(--line); }
  #sessions { list-style: none; margin: 0; padding: 0; }
  #sessions li { padding: 8px 14px; border-bottom: 1px solid var(--line); cursor: pointer; }
  #sessions li:hover { background: #242424; }
  #sessions li.attached { background: #1f3350; }
  #sessions li .id { font-family: monospace; font-size: 12px; color: var(--muted); }
  #sessions li .cmd { display: block; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  #sessions li.exited .cmd { color: var(--muted); text-decoration: line-through; }
  .badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px;\
 background: #333; margin-left: 4px; }
  .badge.exited { background: #5a2a2a; }
  .badge.human { background: var(--human); color: #000; }
  main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
  header { display: flex; gap: 12px; align-items: center; padding: 8px 14px;\
 border-bottom: 1px solid var(--line); background: var(--panel); flex-wrap: wrap; }
  #title { font-weight: 600; }
  #size, #state { font-family: monospace; color: var(--muted); }
  #control.human { color: var(--human); font-weight: 600; }
  button { font: inherit; padding: 4px 12px; border-radius: 4px; border: 1px solid var(--line);\
 background: #2a2a2a; color: var(--text); cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #000; }
  button:disabled { opacity: 0.4; cursor: default; }
  #screen { flex: 1; overflow: auto; padding: 12px; }
  #terminal { display: inline-block; outline: 2px solid transparent; }
  #terminal.human { outline-color: var(--human); }
  .recordings { list-style: none; margin: 4px 0 0; padding: 0; font-size: 12px; }
  .recordings button { font-size: 12px; padding: 1px 8px; margin: 2px 0; }
  #playback { flex: 1; display: flex; flex-direction: column; min-height: 0; padding: 12px; overflow: auto; }
  #playback[hidden], #screen[hidden] { display: none; }
  .playback-bar { display: flex; gap: 12px; align-items: center; margin-bottom: 8px; }
  #player { max-width: 1000px; }
  #message { padding: 6px 14px; color: var(--muted); min-height: 1.5em; border-top: 1px solid var(--line); }
</style>
</head>
<body>
<aside>
  <h1>tui-tester sessions</h1>
  <ul id="sessions"></ul>
</aside>
<main>
  <header>
    <span id="title">No session</span>
    <span id="size"></span>
    <span id="state"></span>
    <span id="control"></span>
    <button id="take" class="primary" disabled>Take control</button>
    <button id="fit" hidden title="Resize the program's terminal to this window">Fit to window</button>
    <button id="release" hidden>Release</button>
  </header>
  <div id="screen"><div id="terminal"></div></div>
  <div id="playback" hidden>
    <div class="playback-bar"><span id="playback-title"></span><button id="playback-close">Back to live</button></div>
    <div id="player"></div>
  </div>
  <div id="message">Connecting…</div>
</main>
<script src="/xterm.js?token={{TOKEN}}"></script>
<script src="/player.js?token={{TOKEN}}"></script>
<script src="/playback.js?token={{TOKEN}}"></script>
<script src="/viewer.js?token={{TOKEN}}"></script>
</body>
</html>
`;
