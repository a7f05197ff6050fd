; inherits: typescript
; Vue: the TypeScript patterns over the component's <script> blocks (indexer/prepass.py blanks
; the rest), so an import, a function or a `const` of the script is a definition.
