; TOML top-level keys (tree-sitter-language-pack 0.13.0): the keys before the first table,
; and each table's or array of tables' own key (`[tool.ruff]` is the key tool.ruff).
; TOML refers to nothing by name: no references.

; ---- definitions -------------------------------------------------------------

(document (pair . [(bare_key) (quoted_key) (dotted_key)] @name) @definition.key)
(table . [(bare_key) (quoted_key) (dotted_key)] @name) @definition.key
(table_array_element . [(bare_key) (quoted_key) (dotted_key)] @name) @definition.key
