/**
 * The shop's sales-channel publications, to find the Online Store's (decision 013). Since
 * `Publication.name` and `Channel.handle` are deprecated, a publication is named by its catalog:
 * a sales channel's publication belongs to an app catalog (`catalogType: APP`) whose title is the
 * channel's name. Needs `read_publications`, which `write_publications` implies.
 */
export const ONLINE_STORE_PUBLICATION_QUERY = `#graphql
  query OnlineStorePublication {
    publications(first: 50, catalogType: APP) {
      nodes {
        id
        catalog {
          title
        }
      }
    }
  }
`;

/** The title of the Online Store sales channel's app catalog. */
export const ONLINE_STORE_CATALOG_TITLE = "Online Store";
