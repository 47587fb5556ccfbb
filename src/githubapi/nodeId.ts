/** A row's id in our graph (plugin-relay's global id: base64 of `<Type>:<id>`), GitHub's REST `node_id`. */
export const nodeId = (type: string, id: number): string => Buffer.from(`${type}:${id}`).toString('base64');
