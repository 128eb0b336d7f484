// Runs before the page paints (a classic script in <head>): applies the theme the person chose,
// so a dark page never flashes light. Without a choice the system's preference rules.
(function () {
  try {
    var chosen = localStorage.getItem('agentteams-theme');
    if (chosen === 'light' || chosen === 'dark') {
      document.documentElement.dataset.theme = chosen;
    }
  } catch (e) {
    // Storage may be unavailable (private modes); the system preference still applies.
  }
})();
