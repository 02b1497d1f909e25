export {type Context, createContext, type ContextOptions} from '../store/context.js'
