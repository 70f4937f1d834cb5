// Start the game once the page's markup is there.
window.addEventListener('DOMContentLoaded', function () {
  new GameManager(4);
});
