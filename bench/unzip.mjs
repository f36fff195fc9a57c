// The files of a zip archive in memory (the theme zips of ../shared/themes), read with yauzl as the server does.
import yauzl from 'yauzl';

/** [path inside the theme, bytes] for every file, a single top folder removed. */
export async function unzipFiles(file) {
  const zip = await new Promise((resolve, reject) => yauzl.open(file, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))));
  const files = [];
  await new Promise((resolve, reject) => {
    zip.on('entry', (entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks = [];
        stream.on('data', (chunk) => chunks.push(chunk));
        stream.on('end', () => {
          files.push([entry.fileName, Buffer.concat(chunks)]);
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  const tops = new Set(files.map(([name]) => name.split('/')[0]));
  const strip = tops.size === 1 && files.every(([name]) => name.includes('/'));
  return files.map(([name, data]) => [strip ? name.slice(name.indexOf('/') + 1) : name, data]).filter(([name]) => !/(^|\/)(__MACOSX|\.DS_Store)/.test(name));
}
