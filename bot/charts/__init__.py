"""Charts drawn from stored figures (Pillow): `stats.stats_chart` for `/stats` and
`deucebot stats --chart`; `figures.stats_figures` reads what they show."""
