export interface LoggedRequest {
  url: string
  body: any
}
export interface FakeModel {
  port: number
  url: string
  requests: LoggedRequest[]
  close(): Promise<void>
}
export function startFakeModel(write: {file: string; relative: string; content: string}): Promise<FakeModel>
