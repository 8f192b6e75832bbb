// The report page's wiring (inlined after asciinema-player): one player per test recording, the
// step list seeks the player to the step's marker, and the step the player is at is highlighted.
"use strict";
(function () {
  const players = {};
  window.__tuiReport = { players };
  for (const el of document.querySelectorAll(".player[data-test]")) {
    const id = el.dataset.test;
    const data = JSON.parse(document.getElementById("cast-" + id).textContent);
    const player = AsciinemaPlayer.create({ data: data.cast }, el, {
      markers: data.markers,
      fit: "width",
      terminalFontFamily: "'DejaVu Sans Mono', monospace",
      preload: true,
    });
    players[id] = player;
    const section = document.getElementById(id);
    const steps = section.querySelectorAll("li.step[data-marker]");
    const highlight = (index) => {
      for (const li of steps) li.classList.toggle("current", Number(li.dataset.marker) === index);
    };
    player.addEventListener("marker", (event) => highlight(event.index));
    for (const li of steps) {
      li.querySelector(".step-head").addEventListener("click", async () => {
        const index = Number(li.dataset.marker);
        await player.seek({ marker: index });
        highlight(index);
      });
    }
  }
})();
