import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { login } from "../../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  // Shopify opens the app with ?shop=…: go straight to the embedded app.
  if (url.searchParams.get("shop")) {
    throw redirect(`/app?${url.searchParams.toString()}`);
  }
  return { showForm: Boolean(login) };
};

export default function Landing() {
  const { showForm } = useLoaderData<typeof loader>();
  return (
    <main
      style={{
        fontFamily: "system-ui, sans-serif",
        maxWidth: 640,
        margin: "4rem auto",
        padding: "0 1rem",
      }}
    >
      <h1>svc product protection</h1>
      <p>
        Offer insurance-backed protection plans next to your products, keep the cart right, and
        report every order to the protection service automatically.
      </p>
      {showForm && (
        <Form method="post" action="/auth/login">
          <label>
            Shop domain <input type="text" name="shop" placeholder="example.myshopify.com" />
          </label>{" "}
          <button type="submit">Log in</button>
        </Form>
      )}
    </main>
  );
}
