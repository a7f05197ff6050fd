; Markdown headings (tree-sitter-language-pack 0.13.0 "markdown", block grammar): a heading
; spans its section, so a subsection's qualified name is its path of titles; a link
; reference definition (`[guide]: docs/guide.md`) is a key whose destination it links.

; ---- definitions -------------------------------------------------------------

(section (atx_heading heading_content: (inline) @name)) @definition.heading
(setext_heading heading_content: (paragraph (inline) @name)) @definition.heading
(link_reference_definition (link_label) @name) @definition.key

; ---- references --------------------------------------------------------------

(link_reference_definition (link_destination) @name) @reference.import
