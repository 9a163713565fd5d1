import { defineArea } from '../route.js';

export default defineArea('object-storage', () => {});

export function mountObjectData(_app: import('fastify').FastifyInstance, _services: import('../route.js').Services): void {}
