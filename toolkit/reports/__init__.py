"""Reports: one section model (headings, text, tables and charts) rendered to markdown
(reports.markdown) and to PDF (reports.pdf), every chart laid out by one chart backend
(reports.charts, which also paints PNG images); the builders of the simulator's reports
(reports.simulation) and the workbench's (reports.workbench) only assemble sections.

The section model itself is toolkit.sections, plain data at the bottom of the house: the rules
families fill its sections too, and they sit far below the reports.
"""
