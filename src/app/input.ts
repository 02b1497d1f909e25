// Parsing is pure, so it lives in the domain, where importers use it too.
export {parseStructured} from '../domain/structured.js'
