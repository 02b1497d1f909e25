// yaml, as cairn's modules load it. Node loads the package as some seventy CommonJS files, about 30 ms
// of CPU at each start of a command that reads or writes a card; the build replaces this file's output
// with the package bundled into one file (scripts/bundle-vendor.mjs).
import YAML from 'yaml'

export default YAML
