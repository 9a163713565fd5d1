import { defineArea } from '../route.js';

export default defineArea('firewalls', () => {}, { betaOnly: true });
