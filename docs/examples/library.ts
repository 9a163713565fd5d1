import { startService } from 'vmtui/service';   // or: const { startService } = require('vmtui/service')

const service = await startService();           // a throwaway empty account, transitions instant
await fetch(`${service.baseUrl}/vm/instances`, { headers: { authorization: `Bearer ${service.token}` } });
await service.close();
