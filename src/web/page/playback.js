// Recordings of the viewer's sessions, played with asciinema-player (the same player as the html
// report). The server lists each session's recordings; a click fetches one and plays it in place
// of the live screen until "Back to live".
"use strict";
window.tuiPlayback = (() => {
  const $ = (id) => document.getElementById(id);
  let player = null;

  function close() {
    if (player) player.dispose();
    player = null;
    $("playback").hidden = true;
    $("screen").hidden = false;
  }
  $("playback-close").addEventListener("click", close);

  async function play(session, recording, token) {
    const params = new URLSearchParams({ token, session: session.id, n: String(recording.n) });
    const response = await fetch(`/recording?${params}`);
    if (!response.ok) {
      $("message").textContent = `Recording ${recording.name}: ${await response.text()}`;
      return;
    }
    const cast = await response.text();
    close();
    $("screen").hidden = true;
    $("playback").hidden = false;
    $("playback-title").textContent =
      `${recording.name}${recording.closed ? "" : " (still recording: played up to now)"}`;
    player = AsciinemaPlayer.create({ data: cast }, $("player"), {
      fit: "width",
      autoPlay: true,
      terminalFontFamily: '"tui-tester mono", monospace',
    });
    window.__tuiPlayer = player;
  }

  /** Adds the session's recordings under its entry in the session list. */
  function decorate(li, session, token) {
    if (!session.recordings || session.recordings.length === 0) return;
    const list = document.createElement("ul");
    list.className = "recordings";
    for (const recording of session.recordings) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.textContent = `▶ ${recording.name}`;
      button.title = "Play this recording";
      button.addEventListener("click", (event) => {
        event.stopPropagation();
        play(session, recording, token);
      });
      item.append(button);
      list.append(item);
    }
    li.append(list);
  }

  return { decorate, close };
})();
