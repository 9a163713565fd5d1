// `npm run build:image`: the image vmtui:dev, `vmtui serve` for any language's test suite. No base
// image can be pulled, so it is built FROM scratch: the Node.js running this script (the repository's
// pinned 24) with the shared libraries `ldd` lists for it, dist/'s bundles, and the container's entry
// (src/boot/container-main.ts: serve on 0.0.0.0:4000 by default, and the health check).
// Usage: node scripts/build-image.mjs [--tag vmtui:dev]
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { tag: { type: 'string', default: 'vmtui:dev' } } });
const context = mkdtempSync(join(tmpdir(), 'vmtui-image-'));
const rootfs = join(context, 'rootfs');
const put = (from, to) => {
  mkdirSync(dirname(join(rootfs, to)), { recursive: true });
  // Links followed: the image holds each library under the name the loader asks for.
  copyFileSync(from, join(rootfs, to));
};
try {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  put(process.execPath, '/usr/local/bin/node');
  // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)", and the loader alone as "/lib64/ld-linux-x86-64.so.2 (0x…)".
  const libraries = execFileSync('ldd', [process.execPath], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1])
    .filter(Boolean);
  for (const lib of libraries) put(lib, lib);
  cpSync('dist', join(rootfs, 'app', 'dist'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  await build({ entryPoints: ['src/boot/container-main.ts'], outfile: join(rootfs, 'app', 'container.js'), bundle: true, platform: 'node', target: 'node24', format: 'cjs', minify: true, logLevel: 'warning' });
  // glibc reads these for names (localhost) and the user; the service writes its code caches and any data file under /tmp.
  mkdirSync(join(rootfs, 'etc'), { recursive: true });
  writeFileSync(join(rootfs, 'etc', 'hosts'), '127.0.0.1 localhost\n::1 localhost\n');
  writeFileSync(join(rootfs, 'etc', 'nsswitch.conf'), 'hosts: files dns\n');
  writeFileSync(join(rootfs, 'etc', 'passwd'), 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/sbin/nologin\n');
  mkdirSync(join(rootfs, 'tmp'));
  chmodSync(join(rootfs, 'tmp'), 0o1777);
  writeFileSync(
    join(context, 'Dockerfile'),
    `FROM scratch
COPY rootfs/ /
ENV HOME=/tmp
USER 65534:65534
EXPOSE 4000
ENTRYPOINT ["/usr/local/bin/node", "/app/container.js"]
CMD ["serve", "--ready-json"]
HEALTHCHECK --interval=2s --timeout=3s --retries=15 CMD ["/usr/local/bin/node", "/app/container.js", "--health-check"]
`,
  );
  execFileSync('docker', ['build', '--tag', values.tag, context], { stdio: 'inherit', env: { ...process.env, DOCKER_BUILDKIT: '0' } });
  const bytes = Number(execFileSync('docker', ['image', 'inspect', values.tag, '--format', '{{.Size}}'], { encoding: 'utf8' }).trim());
  console.log(`build:image: ${values.tag} (${(bytes / 1e6).toFixed(1)} MB, Node.js ${process.version})`);
} finally {
  rmSync(context, { recursive: true, force: true });
}
