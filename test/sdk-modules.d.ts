// The official Ghost SDKs ship no type declarations; the end-to-end tests use them as untyped clients.
declare module '@tryghost/admin-api';
declare module '@tryghost/content-api';
