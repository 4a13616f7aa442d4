import type { DefaultTheme } from "vitepress";

/** Every page of the site, in reading order: the user's path first, maintainer material last. */
export const sidebar: DefaultTheme.SidebarItem[] = [
  {
    text: "Start",
    items: [
      { text: "Tutorial: Nuxt in ten minutes", link: "/guide/tutorial" },
      { text: "Getting started", link: "/guide/getting-started" },
      { text: "The two eras", link: "/guide/eras" },
      { text: "Hosts", link: "/guide/hosts" },
      { text: "Nuxt and Nitro modules", link: "/guide/modules" },
      { text: "Coming from @nuxtjs/mcp-toolkit", link: "/guide/coming-from-mcp-toolkit" },
      { text: "Troubleshooting", link: "/guide/troubleshooting" },
    ],
  },
  {
    text: "Writing a server",
    items: [
      { text: "Definitions", link: "/guide/definitions" },
      { text: "event.context.mcp", link: "/guide/context" },
      { text: "Asking the client", link: "/guide/asking-the-client" },
      { text: "Options", link: "/guide/options" },
      { text: "Testing your server", link: "/guide/testing" },
    ],
  },
  {
    text: "Deploying",
    items: [
      { text: "Authorization", link: "/guide/auth" },
      { text: "Sessions and several instances", link: "/guide/scale-out" },
      { text: "Security", link: "/guide/security" },
      { text: "Instrumentation", link: "/guide/instrumentation" },
    ],
  },
  {
    text: "Optional parts",
    items: [
      { text: "Tasks", link: "/guide/tasks" },
      { text: "MCP Apps", link: "/guide/apps" },
      { text: "Skills", link: "/guide/skills" },
      { text: "Inspector page", link: "/guide/inspector" },
      { text: "Writing an extension", link: "/guide/writing-an-extension" },
      { text: "What comes next", link: "/guide/what-comes-next" },
    ],
  },
  {
    text: "Reference",
    items: [
      { text: "Conformance", link: "/reference/conformance" },
      { text: "Benchmarks", link: "/reference/benchmarks" },
    ],
  },
  { text: "Contributing", items: [{ text: "Developing mcp-h3", link: "/contributing/" }] },
];
