; SQL definitions and references (tree-sitter-language-pack 0.13.0 "sql", a dialect-neutral
; grammar): tables and views are structs of their columns; functions, triggers, indexes and
; types by name. `schema.table` is named by its last part.

; ---- definitions -------------------------------------------------------------

(create_table (object_reference name: (identifier) @name)) @definition.struct
(create_view (object_reference name: (identifier) @name)) @definition.struct
(create_materialized_view (object_reference name: (identifier) @name)) @definition.struct
(column_definition name: (identifier) @name) @definition.field
(create_function (keyword_function) . (object_reference name: (identifier) @name)) @definition.function
(create_trigger (object_reference name: (identifier) @name)) @definition.function
(create_index column: (identifier) @name) @definition.variable
(create_type (object_reference name: (identifier) @name)) @definition.type

; ---- references --------------------------------------------------------------

(invocation (object_reference name: (identifier) @name)) @reference.call
(relation (object_reference name: (identifier) @name)) @reference.type
(column_definition (object_reference name: (identifier) @name)) @reference.type
(create_index (object_reference name: (identifier) @name)) @reference.type
(field (object_reference name: (identifier) @qualifier) name: (identifier) @name) @reference.reference
