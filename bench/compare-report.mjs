// Tables of the comparison: each server's figures, then Quire against Ghost with design.md §6's targets.

const TARGET = { reqRatio: 10, p99Ratio: 0.1, rssMb: 100, startMs: 1000, createMs: 5, bareShare: 0.5 };

export const fmt = (value, digits = 0) => (value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits));
const ms = (value) => (value === undefined ? '—' : value < 10 ? value.toFixed(2) : value.toFixed(0));
const times = (value) => (Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)}×` : '—');

/** Columns padded to their widest cell; the first left-aligned, the others right-aligned. */
export function table(headers, rows) {
  const widths = headers.map((header, c) => Math.max(header.length, ...rows.map((row) => String(row[c]).length)));
  const line = (cells) => cells.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** One server's run: its reads under load and its other figures. */
export function serverReport(run) {
  const lines = [`\n## ${run.label}`, ...run.notes.map((note) => `   ${note}`), ''];
  lines.push(
    table(
      ['read', 'answer', 'KB', 'req/s', 'p50 ms', 'p99 ms', 'failures', 'peak RSS MB', 'load-gen CPU'],
      run.reads.map((r) => [
        r.name,
        r.check,
        fmt(r.kb, 1),
        fmt(r.reqPerSec),
        ms(r.p50),
        ms(r.p99),
        r.failures,
        fmt(r.peakRssMb),
        `${fmt(r.generatorCpu * 100)} %`,
      ]),
    ),
  );
  lines.push('');
  lines.push(`start to first answer, new database: ${fmt(run.startMs)} ms`);
  if (run.restartMs !== undefined) lines.push(`start to first answer, this database (${run.posts} posts): ${fmt(run.restartMs)} ms`);
  lines.push(`seeding (${run.seed}): ${fmt(run.seedSeconds, 1)} s, then ${fmt(run.idleMs / 1000, 1)} s until the server was idle`);
  if (run.creates)
    lines.push(`post create through @tryghost/admin-api: median ${ms(run.creates.median)} ms, p90 ${ms(run.creates.p90)} ms over ${run.creates.count}`);
  for (const [i, all] of (run.limitAll ?? []).entries()) {
    lines.push(
      `GET posts/?limit=all (${i ? 'again' : 'first'}): ${all.status}, ${all.posts} posts, ${fmt(all.megabytes, 1)} MB, first byte ${fmt(all.firstByteMs)} ms, ` +
        `total ${fmt(all.totalMs)} ms, peak RSS ${fmt(all.peakRssMb)} MB (${fmt(all.restRssMb)} MB before)`,
    );
  }
  return lines.join('\n');
}

function readVerdict(quire, ghost) {
  if (!quire.target) return 'not a target';
  // autocannon counts answers that arrived: a server slower than the run leaves nothing to compare.
  if (!(quire.reqPerSec > 0 && ghost.reqPerSec > 0)) return `no answer within the run on ${quire.reqPerSec > 0 ? 'Ghost' : 'Quire'}: use a longer --seconds`;
  const missed = [];
  if (!(quire.reqPerSec / ghost.reqPerSec >= TARGET.reqRatio)) missed.push('req/s');
  if (!(quire.p99 / ghost.p99 <= TARGET.p99Ratio)) missed.push('p99');
  if (!(quire.peakRssMb <= TARGET.rssMb)) missed.push('RSS');
  if (quire.failures > 0) missed.push('failures');
  return missed.length ? `MISSED: ${missed.join(', ')}` : 'met';
}

const verdict = (ok) => (ok ? 'met' : 'MISSED');

/** Per read: Ghost's req/s, p99 and peak RSS beside each Quire run's, with the ratios (the README's table). */
function sideBySide(quireRuns, ghost) {
  const headers = ['read', 'Ghost req/s', 'p99 ms', 'RSS MB'];
  for (const run of quireRuns) headers.push(`Quire ${run.mode} req/s`, 'p99 ms', 'RSS MB', 'req/s ×', 'p99 ×');
  const rows = ghost.reads.map((ghostRead, r) => {
    const row = [ghostRead.name, fmt(ghostRead.reqPerSec), ms(ghostRead.p99), fmt(ghostRead.peakRssMb)];
    for (const run of quireRuns) {
      const read = run.reads[r];
      row.push(fmt(read.reqPerSec), ms(read.p99), fmt(read.peakRssMb), times(read.reqPerSec / ghostRead.reqPerSec), times(read.p99 / ghostRead.p99));
    }
    return row;
  });
  return `\n## Per read, side by side\n\n${table(headers, rows)}`;
}

/** Quire's runs (cache off, cache on) against Ghost's; without Ghost, the targets that need no ratio. */
export function comparisonReport(quireRuns, ghost) {
  const lines = [];
  if (ghost) lines.push(sideBySide(quireRuns, ghost));
  if (ghost) {
    lines.push(`\n## Quire ÷ Ghost ${ghost.version} (targets: req/s ≥ ${TARGET.reqRatio}×, p99 ≤ ${TARGET.p99Ratio}×, Quire's RSS ≤ ${TARGET.rssMb} MB)\n`);
    const rows = [];
    for (const [r, ghostRead] of ghost.reads.entries()) {
      for (const run of quireRuns) {
        const read = run.reads[r];
        const same = read.check === ghostRead.check ? '' : ` (answers differ: ${read.check} / ${ghostRead.check})`;
        rows.push([
          read.name,
          run.mode,
          times(read.reqPerSec / ghostRead.reqPerSec),
          times(read.p99 / ghostRead.p99),
          `${fmt(read.peakRssMb)} / ${fmt(ghostRead.peakRssMb)}`,
          readVerdict(read, ghostRead) + same,
        ]);
      }
    }
    lines.push(table(['read', 'Quire', 'req/s ×', 'p99 ×', 'RSS MB Quire / Ghost', 'target'], rows));
  } else {
    lines.push(`\n## Targets without the Ghost peer (ratios need it)\n`);
    const rows = quireRuns.flatMap((run) =>
      run.reads
        .filter((read) => read.target)
        .map((read) => [read.name, run.mode, fmt(read.peakRssMb), verdict(read.peakRssMb <= TARGET.rssMb && read.failures === 0)]),
    );
    lines.push(table(['read', 'Quire', 'peak RSS MB', `RSS ≤ ${TARGET.rssMb} MB`], rows));
  }
  for (const run of quireRuns.filter((r) => r.bare)) {
    lines.push(`\n## Quire, ${run.mode} ÷ a bare Node server sending the same bytes on the same core (target ≥ ${TARGET.bareShare * 100} %)\n`);
    const rows = run.reads.map((read, r) => {
      const bare = run.bare[r];
      const share = read.reqPerSec / bare.reqPerSec;
      return [
        read.name,
        fmt(read.reqPerSec),
        fmt(bare.reqPerSec),
        ms(bare.p99),
        `${fmt(bare.generatorCpu * 100)} %`,
        `${fmt(share * 100)} %`,
        verdict(share >= TARGET.bareShare),
      ];
    });
    lines.push(table(['read', 'Quire req/s', 'bare req/s', 'bare p99 ms', 'load-gen CPU', 'share', 'target'], rows));
  }
  lines.push('');
  const others = [];
  for (const run of quireRuns) {
    others.push([
      `start to first answer, new database`,
      run.mode,
      `${fmt(run.startMs)} ms`,
      ghost ? `${fmt(ghost.startMs)} ms` : '—',
      `≤ ${TARGET.startMs} ms: ${verdict(run.startMs <= TARGET.startMs)}`,
    ]);
    others.push([
      'post create (SDK), median',
      run.mode,
      `${ms(run.creates.median)} ms`,
      ghost ? `${ms(ghost.creates.median)} ms` : '—',
      `≤ ${TARGET.createMs} ms: ${verdict(run.creates.median <= TARGET.createMs)}`,
    ]);
    const [all] = run.limitAll;
    const ghostAll = ghost?.limitAll?.[0];
    others.push([
      `limit=all, ${run.posts} posts: first byte / total / peak RSS`,
      run.mode,
      `${fmt(all.firstByteMs)} / ${fmt(all.totalMs)} ms / ${fmt(all.peakRssMb)} MB`,
      ghostAll ? `${fmt(ghostAll.firstByteMs)} / ${fmt(ghostAll.totalMs)} ms / ${fmt(ghostAll.peakRssMb)} MB` : '—',
      'streamed, flat: compare --posts 200 with 10000',
    ]);
  }
  lines.push(table(['figure', 'Quire run', 'Quire', 'Ghost', 'target'], others));
  return lines.join('\n');
}
