; inherits: cpp
; HLSL: the C++ patterns (tree-sitter-language-pack 0.13.0's HLSL grammar extends C++'s).
; It does not know `cbuffer`/`tbuffer` blocks: their members are read as plain variables.
