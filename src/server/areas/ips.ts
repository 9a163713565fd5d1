import { defineArea } from '../route.js';

export default defineArea('ips', () => {});
