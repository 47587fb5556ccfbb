import {
  isCompositeType,
  isObjectType,
  isUnionType,
  type GraphQLSchema,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLResolveInfo,
  type OperationDefinitionNode,
} from 'graphql';

/**
 * The field names an operation selects on each composite type, anywhere in it: in the operation and in every
 * fragment, whatever the path or alias. A superset of what any one object of the type resolves, which is what a
 * preloader may prune columns by (preload/plan.ts): a column no selected field reads is never read.
 */
export type SelectedFields = (objectType: string) => ReadonlySet<string>;

const byOperation = new WeakMap<OperationDefinitionNode, Map<string, Set<string>>>();

function fieldsByType(info: GraphQLResolveInfo): Map<string, Set<string>> {
  let map = byOperation.get(info.operation);
  if (map) return map;
  const found = new Map<string, Set<string>>();
  const typeInfo = new TypeInfo(info.schema);
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [info.operation, ...Object.values(info.fragments)] };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        if (!parent || !isCompositeType(parent)) return;
        const set = found.get(parent.name) ?? new Set<string>();
        set.add(node.name.value);
        found.set(parent.name, set);
      },
    }),
  );
  map = found;
  byOperation.set(info.operation, map);
  return map;
}

const reachedThrough = new WeakMap<GraphQLSchema, Map<string, string[]>>();

/** An object type's name with the interfaces it implements and the unions it belongs to. */
function namesOf(schema: GraphQLSchema, objectType: string): string[] {
  let bySchema = reachedThrough.get(schema);
  if (!bySchema) reachedThrough.set(schema, (bySchema = new Map()));
  let names = bySchema.get(objectType);
  if (!names) {
    const type = schema.getType(objectType);
    if (!isObjectType(type)) throw new Error(`${objectType} is not an object type`);
    const unions = Object.values(schema.getTypeMap()).filter((t) => isUnionType(t) && t.getTypes().includes(type));
    names = [objectType, ...type.getInterfaces().map((i) => i.name), ...unions.map((u) => u.name)];
    bySchema.set(objectType, names);
  }
  return names;
}

/** The fields selected on an object type, directly or through an interface or union it belongs to. */
export function selectedFields(info: GraphQLResolveInfo): SelectedFields {
  return (objectType) => {
    const map = fieldsByType(info);
    const out = new Set<string>();
    for (const name of namesOf(info.schema, objectType)) for (const f of map.get(name) ?? []) out.add(f);
    return out;
  };
}
