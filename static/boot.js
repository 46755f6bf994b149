// Starts the page: runs the UI (ui.wasm, Go + vecty) as soon as it is
// compiled, loads ECharts alongside, and compiles the engine worker module in
// parallel, once, for all the workers of the pool (window.phitsimWorkerModule
// is a Promise of a WebAssembly.Module).
(function () {
  'use strict';
  const mark = (name) => { try { performance.mark('phitsim-' + name); } catch (e) { /* old browser */ } };
  const show = (msg) => {
    const el = document.getElementById('loading');
    if (el) { el.textContent = msg; el.classList.add('error'); }
  };
  if (typeof WebAssembly !== 'object') {
    document.addEventListener('DOMContentLoaded', () => show('This browser has no WebAssembly: phitsim cannot run here.'));
    return;
  }
  // Streaming compilation needs the application/wasm type; hosts that send
  // another type get the plain path.
  const compileBuffer = (url) => fetch(url).then((r) => {
    if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
    return r.arrayBuffer();
  }).then((b) => WebAssembly.compile(b));
  const compile = (url) => (WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(fetch(url)).catch(() => compileBuffer(url))
    : compileBuffer(url));
  const ui = compile('ui.wasm').then((m) => { mark('ui-compiled'); return m; });
  window.phitsimWorkerModule = compile('worker.wasm').then((m) => { mark('worker-compiled'); return m; });
  window.phitsimWorkerModule.catch(() => {}); // reported by the pool
  // ECharts (1 MB of JavaScript) loads in parallel; the UI draws its charts
  // when window.phitsimEcharts resolves.
  window.phitsimEcharts = new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = 'echarts.min.js';
    s.async = true;
    s.onload = () => { mark('echarts-loaded'); resolve(); };
    s.onerror = () => reject(new Error('echarts.min.js did not load'));
    document.head.appendChild(s);
  });
  window.phitsimEcharts.catch((err) => show(String(err)));
  const domReady = new Promise((resolve) => {
    if (document.readyState !== 'loading') resolve();
    else document.addEventListener('DOMContentLoaded', resolve, { once: true });
  });
  Promise.all([ui, domReady]).then(async ([uiModule]) => {
    const go = new Go();
    const instance = await WebAssembly.instantiate(uiModule, go.importObject);
    mark('go-start');
    await go.run(instance);
    show('phitsim stopped unexpectedly; reload the page.');
  }).catch((err) => {
    console.error(err);
    show('phitsim failed to load: ' + err);
  });
})();
