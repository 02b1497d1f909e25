import {parentPort, workerData} from 'node:worker_threads'
import {type NodeSearchJob, searchFiles} from './node-search.js'

/** The worker thread of the search in Node (card-search.ts): it searches the job's files and posts the lines back. */
parentPort!.postMessage(searchFiles(workerData as NodeSearchJob))
