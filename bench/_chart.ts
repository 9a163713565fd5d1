import { renderChart } from '../src/components/chart.js';
const t0 = Date.UTC(2024, 0, 1, 0, 0);
const series = Array.from({ length: 288 }, (_, i) => ({ t: t0 + i * 5 * 60_000, v: 50 + 40 * Math.sin(i / 20) + (i % 7) }));
console.log(renderChart(series, { width: 70, height: 10 }).join('\n'));
