/*
 * graphql-js, as one module instance. graphql 16 ships both CommonJS (index.js) and ESM
 * (index.mjs) without an exports map: Node, and @graphql-tools/schema with it, load the CommonJS
 * build, while Vite (vitest) resolves a bare "graphql" to the ESM one. Types built by one are
 * refused by the other ("Cannot use GraphQLObjectType from another module or realm"), so every
 * file of the engine imports graphql through here, from the build @graphql-tools loads.
 */
export * from "graphql/index.js";
