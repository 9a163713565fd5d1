import { defineArea } from '../route.js';

export default defineArea('control', () => {});

export function mountControl(_app: import('fastify').FastifyInstance, _services: import('../route.js').Services): void {}
