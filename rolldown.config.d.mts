import type { InputOptions, RolldownOptions } from 'rolldown';

export declare const external: InputOptions['external'];
export declare const resolve: InputOptions['resolve'];
declare const config: RolldownOptions[];
export default config;
