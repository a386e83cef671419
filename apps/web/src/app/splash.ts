/** The splash of index.html fades in and out in 600 ms (CSS); then it leaves the page. */
export function removeSplashWhenDone(): void {
  const splash = document.getElementById('splash');
  if (!splash) return;
  const remove = () => splash.remove();
  splash.addEventListener('animationend', remove, { once: true });
  // Reduced motion or no animation support: do not leave it in the way.
  window.setTimeout(remove, 1000);
}
