import SchemaBuilder, { BasePlugin, type PothosInputFieldConfig, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';

// Mutations in GitHub's shape (issue #32): `name(input: NameInput!): NamePayload`, the payload nullable and returned
// directly (a refusal is a GraphQL error with GitHub's `type`, see server.ts), and `clientMutationId: String` on the
// input and the payload. plugin-relay builds the input and payload types and echoes clientMutationId, but types it
// `ID`; this plugin gives it GitHub's type and makes every Mutation field nullable, for every mutation at once.

class GithubMutationsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onInputFieldConfig(fieldConfig: PothosInputFieldConfig<Types>): PothosInputFieldConfig<Types> {
    if (fieldConfig.name !== 'clientMutationId' || fieldConfig.type.kind === 'List') return fieldConfig;
    return { ...fieldConfig, type: { ...fieldConfig.type, ref: 'String' } };
  }

  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (fieldConfig.kind === 'Mutation') return { ...fieldConfig, type: { ...fieldConfig.type, nullable: true } };
    if (fieldConfig.name !== 'clientMutationId' || fieldConfig.type.kind === 'List') return fieldConfig;
    return { ...fieldConfig, type: { ...fieldConfig.type, ref: 'String' } };
  }
}

SchemaBuilder.registerPlugin('githubMutations', GithubMutationsPlugin);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      githubMutations: GithubMutationsPlugin<Types>;
    }
  }
}
