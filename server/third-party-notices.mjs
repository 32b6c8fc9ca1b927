// The licence of every package inside an esbuild bundle, from the bundle's metafile, for
// the THIRD-PARTY-NOTICES.txt shipped beside it (the server's package, the .vsix).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Name, version, licence and licence text of each package that `inputs` (the keys of an
 * esbuild metafile's `inputs`, relative to the working directory) come from; one copy of
 * each licence text, headed by the packages that carry it. This project's own packages are
 * left out.
 */
export function thirdPartyNotices(inputs, heading) {
  const packageDirs = new Set();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/\\/g, '/'));
    if (match) packageDirs.add(path.resolve(match[1]));
  }
  const sections = [...packageDirs]
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const licenseFile = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
      const text = licenseFile ? readFileSync(path.join(dir, licenseFile), 'utf8').trim() : `License: ${pkg.license ?? 'see the package'}`;
      return { name: pkg.name, id: `${pkg.name}@${pkg.version}`, license: pkg.license ?? 'unknown', text };
    })
    .filter((section) => !['eslint-plugin-retry-safety', 'retry-safety-language-server'].includes(section.name))
    .sort((a, b) => a.id.localeCompare(b.id));
  const byText = new Map();
  for (const section of sections) {
    const group = byText.get(section.text) ?? byText.set(section.text, { ids: new Set(), licenses: new Set() }).get(section.text);
    group.ids.add(section.id);
    group.licenses.add(section.license);
  }
  return [
    heading,
    '',
    ...[...byText].map(([text, group]) => `${'-'.repeat(72)}\n${[...group.ids].join(', ')} (${[...group.licenses].join(', ')})\n\n${text}\n`),
  ].join('\n');
}
