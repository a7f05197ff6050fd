; inherits: c
; GLSL: the C patterns (tree-sitter-language-pack 0.13.0's GLSL grammar extends C's).
