/** Row types of the custom theme settings migration (0024). */
export interface ThemeSettingTables {
  custom_theme_settings: CustomThemeSettingRow;
}

/** One custom setting of a theme: `value` stored as text (`"true"`/`"false"` for booleans, `__GHOST_URL__/…` for site images). */
export interface CustomThemeSettingRow {
  id: string;
  theme: string;
  key: string;
  type: string;
  value: string | null;
}
