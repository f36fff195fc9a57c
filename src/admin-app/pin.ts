/**
 * The admin app Quire serves: the built client in the `ghost` package (`core/built/admin`, MIT), of the Ghost
 * version whose API Quire speaks. The integrity is the registry's `dist.integrity` for that version
 * (`npm view ghost@5.130.6 dist.integrity`); a tarball that does not hash to it is refused. To update, change
 * both, run `quire admin fetch`, and run the browser test (test/admin-app.e2e.test.ts).
 */
export interface AdminPackage {
  readonly name: string;
  readonly version: string;
  /** Subresource integrity of the tarball (`sha512-<base64>`). */
  readonly integrity: string;
  readonly buildPath: string;
  readonly licensePath: string;
}

export const ADMIN_PACKAGE: AdminPackage = Object.freeze({
  name: 'ghost',
  version: '5.130.6',
  integrity: 'sha512-CAWqPKt+7ws+/1NrVmvuiWiDZDEtutiu7niVMTku9uM29MjfNFFUVKM3giQBpZGZrUORXkWiXSlqbry4QGVrBw==',
  /** Where the admin build sits inside the package's tarball (npm puts everything under `package/`). */
  buildPath: 'package/core/built/admin/',
  licensePath: 'package/LICENSE',
});

/** Written beside the build by `quire admin fetch`: which package it came from, so a later install can tell it is current. */
export const MANIFEST_FILE = 'quire-admin.json';

/**
 * Text assets worth compressing (images, fonts and videos of the build are compressed already). Here, not in
 * fetch.ts: the server needs it to serve the build, and fetch.ts brings the tar reader (the CLI's) with it.
 */
export const COMPRESSIBLE = /\.(m?js|css|svg|json|html|map|txt|ttf|ico)$/;
