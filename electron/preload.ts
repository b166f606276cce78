import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { HostFrame } from '../shared/protocol/wire';
import { IPC_CHANNEL, IpcClient } from './window/ipc-client';

// The whole surface the renderer gets: invoke(method, params) and subscribe(topic, cursor, cb),
// plus the path of a file the user dropped on the window (a folder dropped to open it as a project;
// Electron no longer puts it on File). No raw ipcRenderer, no sendSync, no file access. Everything travels as protocol frames on one
// channel with one listener (window/ipc-client.ts); main checks the sender and every frame.

const client = new IpcClient((frame) => ipcRenderer.send(IPC_CHANNEL, frame));
ipcRenderer.on(IPC_CHANNEL, (_e, frame: HostFrame) => client.receive(frame));

contextBridge.exposeInMainWorld('mewbo', {
  invoke: (method: string, params: unknown) => client.invoke(method, params),
  subscribe: (
    topic: string,
    cursor: number | undefined,
    onData: (d: unknown) => void,
    onError: (e: unknown) => void,
  ) => client.subscribe(topic, cursor, onData, onError),
  // Only a File the page holds from a drop can be asked about: a path string cannot be passed in.
  pathForFile: (file: File) => webUtils.getPathForFile(file),
});
