// The class's page in a real browser (issue 49, item 3): Debian's headless Chromium at a phone's
// viewport, driven over the DevTools protocol (no npm package: node --experimental-websocket).
// Opens the join URL, types a name, presses Add, and reads the answer page; saves a screenshot of
// the form and of the answer.
//   node --experimental-websocket classjoin_browser.js CHROMIUM JOIN_URL NAME OUT_DIR
// Prints the answer page's text; exit 0 when it names the verdict and the bits, 1 otherwise.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [chromium, joinUrl, name, outDir] = process.argv.slice(2);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bloomscope-chromium-'));
const browser = spawn(chromium, [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });

/** Ends Chromium, waits for it, and removes its profile (it may still be writing when killed). */
const finish = (code) => {
  browser.once('exit', () => {
    try { fs.rmSync(profile, { recursive: true, force: true }); } catch (e) { /* a temporary directory */ }
    process.exit(code);
  });
  browser.kill('SIGKILL');
};
const fail = (why) => {
  console.error(`classjoin_browser: ${why}`);
  finish(1);
};
setTimeout(() => fail('no answer within 60 s'), 60000).unref();

function devtoolsUrl() {
  return new Promise((resolve) => {
    let seen = '';
    browser.stderr.on('data', (d) => {
      seen += d;
      const m = seen.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
  });
}

async function main() {
  const browserWs = await devtoolsUrl();
  const port = new URL(browserWs).port;
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const page = targets.find((t) => t.type === 'page');
  const ws = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((r) => ws.addEventListener('open', r));
  let next = 1;
  const pending = new Map();
  const waiters = [];
  ws.addEventListener('message', (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.id && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    } else if (msg.method) {
      for (const w of waiters.splice(0)) w(msg);
    }
  });
  const send = (method, params = {}) => new Promise((resolve) => {
    const id = next++;
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params }));
  });
  const loaded = () => new Promise((resolve) => {
    const wait = (msg) => (msg.method === 'Page.loadEventFired' ? resolve() : waiters.push(wait));
    waiters.push(wait);
  });
  const text = async () => (await send('Runtime.evaluate', { expression: 'document.body.innerText', returnByValue: true })).result.result.value;
  const shot = async (file) => {
    const r = await send('Page.captureScreenshot', { format: 'png' });
    fs.writeFileSync(path.join(outDir, file), Buffer.from(r.result.data, 'base64'));
  };

  await send('Page.enable');
  // A phone: 390 x 844 CSS pixels at 3x, touch, a phone's user agent.
  await send('Emulation.setDeviceMetricsOverride', { width: 390, height: 844, deviceScaleFactor: 3, mobile: true });
  await send('Emulation.setTouchEmulationEnabled', { enabled: true });
  let load = loaded();
  await send('Page.navigate', { url: joinUrl });
  await load;
  const form = await text();
  if (!/A name/.test(form)) fail(`the form is not there:\n${form}`);
  // The page needs no script: the viewport is the phone's, nothing wider than it.
  const width = (await send('Runtime.evaluate', { expression: 'document.documentElement.scrollWidth', returnByValue: true })).result.result.value;
  if (width > 390) fail(`the page is ${width} CSS pixels wide on a 390-pixel phone`);
  await shot('classjoin-phone-form.png');
  // Type the name as a user would, and press Add.
  await send('Runtime.evaluate', { expression: 'document.getElementById("name").focus()' });
  await send('Input.insertText', { text: name });
  load = loaded();
  await send('Runtime.evaluate', { expression: 'document.querySelector("button[value=add]").click()' });
  await load;
  const answer = await text();
  await shot('classjoin-phone-answer.png');
  console.log(answer);
  finish(/added/.test(answer) && /bits \d/.test(answer) ? 0 : 1);
}

main().catch((e) => fail(e.stack || String(e)));
