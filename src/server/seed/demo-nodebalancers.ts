import type { IpRecord } from '../ipam.js';
import type { Simulation } from '../sim.js';
import type { Store } from '../store.js';
import { registerTags } from '../tagging.js';
import { addBalancer, addConfigWithNodes, type NewBalancer } from '../areas/nodebalancers-records.js';

/** A self-signed certificate for www.example.com (RSA 2048, ten years) and its key, for the demo's https port. */
export const DEMO_CERT = `-----BEGIN CERTIFICATE-----
MIIDFTCCAf2gAwIBAgIUEu5DlCUv3RMJuJHoB3m0iVGWTUcwDQYJKoZIhvcNAQEL
BQAwGjEYMBYGA1UEAwwPd3d3LmV4YW1wbGUuY29tMB4XDTI2MTEyMjA0MjkxN1oX
DTM2MTExOTA0MjkxN1owGjEYMBYGA1UEAwwPd3d3LmV4YW1wbGUuY29tMIIBIjAN
BgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtInxM59f2tu+PoEt2luSi4UkN3BQ
cKS29C8RCKCpu6uUU2ri3oXERlCGFnEoEpiQMfg5oIcoNkGYMsksXbFd3MNzOtud
AJB169mZoRy4Bqvnp0xdDluOsg6t3aEKI8XSt3CQm9SnVf5TgWNd6MVi+5hLDYvG
SCEUYT9harZ3/eYNJHJ1PBJPF2BxeJSI593A5kcDOrx4wj/5lRGTq0bViBl1ClhS
As5IJAoHgNBFMvzJu6otww1pjvjLBQj7l1RoaoVftVNa7bYQUdpfQfCsQiDZpmS0
WxyVMepz6UU9i1JC3/Ja4v7Xjg16dyIvhYwyIPE1AiX5L99RZwHHxmIR5QIDAQAB
o1MwUTAdBgNVHQ4EFgQUPJB0nrQJJcQXD2YmaQy4h2ZMS+0wHwYDVR0jBBgwFoAU
PJB0nrQJJcQXD2YmaQy4h2ZMS+0wDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0B
AQsFAAOCAQEAX66QR45ATLZwLKO/YNCPaNQmZhRjdvtBhtOAOIr+qywbf1YchlSf
Mh9Vjksl/T7llg+qPz/ERsJ+6BH0VElz6yxjC5MzHm6K+GuxMDX+hVPPrW9gQMUB
Xmmpa31JTX7XEd/ZvnKpWXiwSHeZp/uQ0ewh552aQWnxNZRG54sYm71cAxAqLwqf
zpIUvt7EXhptfUPm6hnBoKv/JRMLbEbTIEKQNjZYslQglM6WlFJy/p5tgXFVzb7Y
hzhjoQM0ECwQJZgBL+3bC59cs2pEze3fCCM7yiyJHwY9CefQ8fIWh7V20bnSuxS4
yuyr6ak+25xZ9KWPsSHuR7SSBYRMBdSLTw==
-----END CERTIFICATE-----
`;

export const DEMO_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQC0ifEzn1/a274+
gS3aW5KLhSQ3cFBwpLb0LxEIoKm7q5RTauLehcRGUIYWcSgSmJAx+Dmghyg2QZgy
ySxdsV3cw3M6250AkHXr2ZmhHLgGq+enTF0OW46yDq3doQojxdK3cJCb1KdV/lOB
Y13oxWL7mEsNi8ZIIRRhP2Fqtnf95g0kcnU8Ek8XYHF4lIjn3cDmRwM6vHjCP/mV
EZOrRtWIGXUKWFICzkgkCgeA0EUy/Mm7qi3DDWmO+MsFCPuXVGhqhV+1U1rtthBR
2l9B8KxCINmmZLRbHJUx6nPpRT2LUkLf8lri/teODXp3Ii+FjDIg8TUCJfkv31Fn
AcfGYhHlAgMBAAECggEAAnpYNKit1J+qe0ojmnkiSEbyCc7BU+J23mAdADzQR5Kh
zQlNBtfYK0zkoj84WRT9+amaBOGGBESfNac8NCcAjkyicr7b50uUSsHoUWVHA1Rt
sAakylMoYLpB2aZhsL8A1uK1IWZoS45bkA2QlubKpoBfG1b9SDUoBfOsPx41BGeT
eIDnI2ugfriEN4lJUBxlOZcOr+hAVPXFoxC5OauzKSOWziydqtqNH5BQ4bPtrXay
sBEjZrmuXjnfqSI5hg+bfcsd31r0+bijvSVeyHoUQ7mz5Pg8niK8Rrx/Xi1cg2mA
18zfwW6yiZ6SBn/m2lwuRSWYotcgTXWQXSCuZ/+I+wKBgQD0REsmEbfdR2Mz9Fwp
3M8FjyBvvwFWsgUk6T37SnrbkD3DTcOg7btM9EripwaBYQ3ByOLF1gU6p/BWefje
T+T0vtnxOGqALROpIIEgWK5braI6NIHA3zc3JJB6+3F/yfak9k2lazGA/MSg2EjK
NqK1ffDospzLyWystL9Uly44owKBgQC9Nf9IPjMxiR6y5mg6N2Vwouq7DZt5YFDc
Hf3rFdNIIzBhHoGrHUPwey8CH7ZNvZ6641FOEN5R71wpHxbB+40ti1YlWmEBQ/Ia
aT3xr2Gx09P4MRojnjt8FfQyguTDXpiXbDbWHCxnaURlxG/+ELeAhyXtae3iz1yj
E5Swv/CL1wKBgQCo4KaMFWfnJrnha6pkjvLaRxAH8ih8xetkj5V4rQ+vyVPKOXNt
Sa9bDvLPLOcEgBNAzSBr4wIOgZlaUE3NdbM3utN3QKfxIjkbjwt3T5iMbclhMHgc
3raP+0mgnULlNL6/YkJggXHiWd+fzKjWlVt82yu51fMtuX7XEMfPNg6QvQKBgQCr
Oi5nhkJ11Yz+gRxZcsBOCmE6HbpRQSRrzoh3Mi0d3xptCVp3K+jLu+5ykZg9ChiX
MBfn+cP3ihFw9T13FtpQGQRAkWWv63kxBYSVLw3OC9CLjoQFL7DNPmDbRTEYzIZy
oe+OG7jjbJQFNJvU4/PsUGG2VGJ/GwDOY23v9gMNyQKBgQCvHCKgjbsTYDgOCo54
Z0XJxgNmPtld9kCEzqT4BCvMA1tQjh/kww3EVaNQnLCdp3dvncJ52MOdKLchDQfd
uqUpYttx7ZemkTAUxTjc3Svqu+i4Lq38KS3BVFFTa+XsWoGMlBafSR0P7ioZzJsS
7YVWPLmhxLdepwSpa0D44gL/xw==
-----END PRIVATE KEY-----
`;

interface VmLike extends Record<string, unknown> {
  id: number;
  label: string;
  region: string;
  status: string;
  tags?: string[];
}

interface Backend {
  address: string;
  label: string;
}

const PREFERRED_REGIONS = ['us-east', 'eu-central', 'us-west', 'eu-west', 'ap-south', 'us-central'];

const regionNodeBalancers = (store: Store) =>
  store.all<{ id: string; capabilities: string[] }>('region').filter((r) => r.capabilities.includes('NodeBalancers')).map((r) => r.id);

/**
 * Three balancers in three regions, fronting the compute demo's instances by
 * their private addresses: web-tagged ones behind web-lb, api ones (or other
 * running ones) behind api-lb, an offline one behind staging-lb. Where compute
 * made no such instance, addresses outside every instance stand in (status
 * unknown).
 */
export function seedNodebalancersDemo(store: Store, _sim: Simulation): void {
  const vms = new Map(store.all<VmLike>('vm').map((vm) => [vm.id, vm]));
  const privateIps = store.all<IpRecord>('ip').filter((ip) => ip.type === 'ipv4' && !ip.public && vms.has(ip.vm_id));
  const capable = new Set(regionNodeBalancers(store));
  const used = new Set<string>();
  let spare = 10;

  const matches = (vm: VmLike, word: string) => (vm.tags ?? []).includes(word) || vm.label.toLowerCase().includes(word);

  /** Every backend the first predicate with any match finds in one unused region, padded to `min` with stand-ins. */
  function place(wants: ((vm: VmLike) => boolean)[], min: number): { region: string; backends: Backend[] } {
    const free = privateIps.filter((ip) => capable.has(ip.region) && !used.has(ip.region));
    const candidates = wants.map((want) => free.filter((ip) => want(vms.get(ip.vm_id)!))).find((c) => c.length > 0) ?? [];
    const region = candidates[0]?.region ?? PREFERRED_REGIONS.find((r) => capable.has(r) && !used.has(r)) ?? 'us-east';
    used.add(region);
    const backends = candidates.filter((ip) => ip.region === region).map((ip) => ({ address: ip.address, label: vms.get(ip.vm_id)!.label }));
    while (backends.length < min) backends.push({ address: `10.20.0.${spare}`, label: `backend-${spare++}` });
    return { region, backends };
  }

  function create(input: NewBalancer, created: string, configs: Record<string, unknown>[]): void {
    const nb = addBalancer(store, input, Date.parse(`${created}Z`));
    for (const config of configs) addConfigWithNodes(store, nb.id, config);
    registerTags(store, input.tags ?? []);
  }

  const offline = (vm: VmLike) => vm.status === 'offline' || vm.status === 'stopped';
  const web = place([(vm) => matches(vm, 'web')], 3);
  const staging = place([(vm) => offline(vm) && matches(vm, 'staging'), offline], 1);
  const api = place([(vm) => matches(vm, 'api'), (vm) => vm.status === 'running' && !matches(vm, 'web')], 3);

  const webMode = (i: number) => (i === web.backends.length - 1 ? 'backup' : i === web.backends.length - 2 ? 'drain' : 'accept');
  const webNodes = web.backends.map((b, i) => ({ address: `${b.address}:80`, label: b.label, mode: webMode(i), weight: 100 }));
  create(
    { region: web.region, label: 'web-lb', client_conn_throttle: 10, tags: ['production', 'web'], transfer: { total: 48213.57, out: 40521.2, in: 7692.37 } },
    '2024-02-12T14:03:11',
    [
      { port: 80, protocol: 'http', check: 'http', check_path: '/health', check_interval: 10, check_timeout: 5, nodes: webNodes },
      {
        port: 443,
        protocol: 'https',
        stickiness: 'http_cookie',
        check: 'http_body',
        check_path: '/health',
        check_body: 'ok',
        check_interval: 10,
        check_timeout: 5,
        ssl_cert: DEMO_CERT,
        ssl_key: DEMO_KEY,
        nodes: webNodes,
      },
    ],
  );

  create(
    { region: api.region, label: 'api-lb', tags: ['production', 'api'], transfer: { total: 12877.04, out: 9310.66, in: 3566.38 } },
    '2024-05-20T09:41:55',
    [
      {
        port: 8443,
        protocol: 'tcp',
        algorithm: 'leastconn',
        check: 'connection',
        check_interval: 15,
        check_attempts: 2,
        proxy_protocol: 'v1',
        nodes: api.backends.slice(0, 3).map((b, i) => ({ address: `${b.address}:8443`, label: b.label, weight: i === 2 ? 50 : 100 })),
      },
    ],
  );

  create(
    { region: staging.region, label: 'staging-lb', tags: ['staging'], transfer: { total: 311.8, out: 240.15, in: 71.65 } },
    '2024-09-03T17:22:08',
    [{ port: 80, protocol: 'http', check: 'http', check_path: '/', nodes: staging.backends.slice(0, 1).map((b) => ({ address: `${b.address}:8080`, label: b.label })) }],
  );
}
