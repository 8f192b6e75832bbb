// The report page's wiring (inlined after asciinema-player): a test's recording gets its player when
// its section comes near the screen (creating twenty players at load would hold the page up), the
// step list seeks the player to the step's marker, and the step the player is at is highlighted.
"use strict";
(() => {
  const players = {};

  function ensurePlayer(id) {
    if (players[id]) return players[id];
    const el = document.querySelector(`.player[data-test="${id}"]`);
    if (!el) return undefined;
    const data = JSON.parse(document.getElementById("cast-" + id).textContent);
    const player = AsciinemaPlayer.create({ data: data.cast }, el, {
      markers: data.markers,
      fit: "width",
      terminalFontFamily: "'DejaVu Sans Mono', monospace",
    });
    players[id] = player;
    const steps = document.getElementById(id).querySelectorAll("li.step[data-marker]");
    player.addEventListener("marker", (event) => {
      for (const li of steps) li.classList.toggle("current", Number(li.dataset.marker) === event.index);
    });
    return player;
  }

  window.__tuiReport = { players, ensurePlayer };

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        ensurePlayer(entry.target.dataset.test);
      }
    },
    { rootMargin: "400px" },
  );
  for (const el of document.querySelectorAll(".player[data-test]")) observer.observe(el);

  for (const li of document.querySelectorAll("li.step[data-marker]")) {
    li.querySelector(".step-head").addEventListener("click", async () => {
      const id = li.closest("section").id;
      const index = Number(li.dataset.marker);
      await ensurePlayer(id).seek({ marker: index });
      for (const other of li.parentElement.querySelectorAll("li.step")) other.classList.toggle("current", other === li);
    });
  }
})();
