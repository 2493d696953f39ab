/** What the page starts with: reasoning, prose with a fenced example that must stay text, then a live block. */
export const sample = `<think>
The user wants the config file. Read it first.
</think>

Here is how a call looks; it is inside a code fence, so it is only an example:

\`\`\`xml
<｜DSML｜tool_calls>
<｜DSML｜invoke name="delete_file">
<｜DSML｜parameter name="path" string="true">/</｜DSML｜parameter>
</｜DSML｜invoke>
</｜DSML｜tool_calls>
\`\`\`

Reading the file now:

<｜DSML｜tool_calls>
<｜DSML｜invoke name="read_file">
<｜DSML｜parameter name="path" string="true">src/config.ts</｜DSML｜parameter>
<｜DSML｜parameter name="limit" string="false">200</｜DSML｜parameter>
</｜DSML｜invoke>
</｜DSML｜tool_calls>
`
