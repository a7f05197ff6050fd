; inherits: cpp
; CUDA: the C++ patterns (tree-sitter-language-pack 0.13.0's CUDA grammar extends C++'s);
; `__global__` and `__device__` functions are functions, `<<<...>>>` launches are calls.
