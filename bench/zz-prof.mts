import { spawn } from '@lydell/node-pty';
const args = process.argv.slice(2);
const t0 = performance.now();
const proc = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/sprof', 'dist/vmtui.js', ...args], { cols: 120, rows: 40, env: { ...(process.env as any), CI: 'false', TERM: 'xterm-256color', XDG_DATA_HOME: '/tmp/sprof-home/data', XDG_CONFIG_HOME: '/tmp/sprof-home/config' } });
let out = ''; proc.onData((d) => (out += d));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let frame = 0;
while (!/Regions\s+\d+/.test(out.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, ''))) { if (!frame && out.includes('? help')) frame = performance.now() - t0; await sleep(5); }
console.log('frame', frame.toFixed(0), 'data', (performance.now() - t0).toFixed(0));
proc.write('q'); await new Promise((r) => proc.onExit(r));
