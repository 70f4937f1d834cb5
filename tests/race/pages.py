"""Small pages that isolate one fact each, loaded with page.set_content."""

SHADOW_AND_FRAME = """
<h1>Widgets</h1>
<div id="host"></div>
<iframe id="frame" title="Embedded form" style="width:400px;height:200px;border:0"
  srcdoc="<label>Card number <input data-testid='card'></label><button>Pay</button>
          <div id='veil' style='position:absolute;inset:0;background:rgba(0,0,0,.3)'></div>"></iframe>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = `<button data-testid="shadow-button">Inside shadow</button>
                    <div style="position:fixed;left:0;top:0;width:100vw;height:60px" data-testid="shadow-banner"></div>`;
</script>"""

STATES = """
<h1>Form</h1>
<label>Name <input value="Ada" data-testid="name"></label>
<label>Secret <input type="password" value="hunter2" data-testid="pw"></label>
<label>Agree <input type="checkbox" checked data-testid="agree"></label>
<button disabled>Locked</button>
<button aria-expanded="false">More</button>
<select aria-label="Plan"><option>Free</option><option selected>Plus</option></select>
<input readonly value="fixed" aria-label="Reference">
<div aria-busy="true" data-testid="busy-list"><button>Busy child</button></div>
<div inert><button>Inert child</button></div>
<button style="pointer-events:none">Ghost</button>
<a href="/checkout"><span>Go to checkout</span></a>
<div style="height:3000px"></div>
<button data-testid="far">Far below</button>
"""

ANIMATED = """
<style>
  @keyframes spin { to { transform: rotate(360deg) } }
  .spinning { animation: spin 2s linear infinite }
</style>
<div class="spinning" data-testid="card"><button>Moving</button></div>
<button>Still</button>
<button class="spinning" style="margin:40px">Spinning itself</button>
<button style="transition: opacity 30s linear, color 1s" onclick="this.style.opacity = 0.5">Fading</button>
"""

TWINS_WITHOUT_SCOPE = """
<button>Delete</button><button>Delete</button><button>Delete</button>
"""

FIELDS = """
<label>Reference <input readonly value="fixed" data-testid="reference"></label>
<label>Code <input disabled data-testid="code"></label>
<div aria-busy="true" data-testid="busy-form"><label>Amount <input data-testid="amount"></label></div>
<button data-testid="save" onclick="window.saved = (window.saved || 0) + 1">Save</button>
<div style="position:relative;width:200px">
  <button data-testid="covered" onmouseover="window.hovered = true">Details</button>
  <div data-testid="veil" style="position:absolute;inset:0;background:rgba(0,0,0,.3)"></div>
</div>
"""

BUSY = """
<button onclick="setTimeout(() => { for (;;) {} }, 50)">Freeze</button>
<button>Other</button>
"""
