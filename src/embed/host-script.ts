/**
 * The script an embed's `html` ends with. It runs on the page that embeds one of this site's posts and speaks the
 * embed frame protocol: the frame posts `{secret, message, value}`; `height` resizes the frame (200 to 1000
 * pixels), `link` sends the top window to a page on the frame's own host while the frame has focus; the first
 * message of a frame hides the fallback quote; on load every frame is told `ready` so it repeats its height.
 * The text has no `&` (content filters would turn it into an entity) and installs its listener once per page.
 */
const SCRIPT = `(function (w, d) {
  if (!w.addEventListener || !d.querySelectorAll || w.__embedHost) { return; }
  w.__embedHost = true;
  var frames = function (secret) { return d.querySelectorAll('iframe[data-secret="' + secret + '"]'); };
  w.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data.secret !== 'string' || /[^a-zA-Z0-9]/.test(data.secret)) { return; }
    var quotes = d.querySelectorAll('blockquote[data-secret="' + data.secret + '"]');
    for (var q = 0; q < quotes.length; q++) { quotes[q].style.display = 'none'; }
    var list = frames(data.secret);
    for (var i = 0; i < list.length; i++) {
      var frame = list[i];
      if (event.source !== frame.contentWindow) { continue; }
      frame.removeAttribute('style');
      if (data.message === 'height') {
        frame.height = Math.min(1000, Math.max(200, parseInt(data.value, 10) || 0));
      } else if (data.message === 'link') {
        var from = d.createElement('a'), to = d.createElement('a');
        from.href = frame.getAttribute('src');
        to.href = data.value;
        if (/^https?:$/i.test(to.protocol)) {
          if (to.host === from.host) {
            if (d.activeElement === frame) { w.top.location.href = data.value; }
          }
        }
      }
    }
  }, false);
  var ready = function () {
    var all = d.querySelectorAll('iframe.wp-embedded-content');
    for (var i = 0; i < all.length; i++) {
      var secret = all[i].getAttribute('data-secret');
      if (secret) { all[i].contentWindow.postMessage({ message: 'ready', secret: secret }, '*'); }
    }
  };
  d.addEventListener('DOMContentLoaded', ready, false);
  w.addEventListener('load', ready, false);
})(window, document);`;

/** The inline `<script>` element, in the reference's layout, its text on one line (every statement ends in `;` or a brace). */
export const HOST_SCRIPT_TAG = `<script>\n${SCRIPT.replace(/\n\s*/g, '')}\n</script>\n`;
