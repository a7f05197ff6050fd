; YAML top-level keys (tree-sitter-language-pack 0.13.0): each key of a document's root
; mapping is a key; aliases (`*defaults`) refer to the anchors they name.

; ---- definitions -------------------------------------------------------------

(document
  (block_node
    (block_mapping
      (block_mapping_pair
        key: (flow_node [(plain_scalar) (double_quote_scalar) (single_quote_scalar)] @name)) @definition.key)))

; ---- references --------------------------------------------------------------

(alias (alias_name) @name) @reference.reference
