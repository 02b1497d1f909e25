// zod, as cairn's modules load it. Node loads the package as some ninety ES modules (every locale among
// them), about 60 ms of CPU at each start of a command that validates; the build replaces this file's
// output with the package bundled into one file (scripts/bundle-vendor.mjs), about half of that.
// cairn imports zod from here, not from 'zod', so every schema comes from one copy of the library;
// the MCP server (src/mcp/) keeps the package itself, as the SDK it hands its schemas to does.
export * from 'zod'
