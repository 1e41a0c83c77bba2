import { BlockStack, InlineStack, Text } from "@shopify/polaris";
import { useId, type CSSProperties } from "react";
import { useLocale, useTranslate } from "../../i18n/react";
import { chartAxisMax, formatCount, formatDay, type DashboardDay } from "../../admin/dashboard";

// A dependency-free bar chart: one group per day, delivered and failed side by side.
const WIDTH = 700;
const HEIGHT = 220;
const PLOT = { left: 48, right: 8, top: 12, bottom: 32 };
const BAR_WIDTH = 26;
const BAR_GAP = 4;
const COLORS = {
  delivered: "var(--p-color-bg-fill-success, #29845a)",
  failed: "var(--p-color-bg-fill-critical, #e51c00)",
  axis: "var(--p-color-border, #e3e3e3)",
  label: "var(--p-color-text-secondary, #616161)",
};

const visuallyHidden: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0,
};

export function EventsChart({ days }: { days: readonly DashboardDay[] }) {
  const t = useTranslate();
  const locale = useLocale();
  const descId = useId();
  const axisMax = chartAxisMax(Math.max(0, ...days.flatMap((day) => [day.delivered, day.failed])));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const groupWidth = plotWidth / Math.max(days.length, 1);
  const y = (value: number) => PLOT.top + plotHeight - (value / axisMax) * plotHeight;
  const ticks = axisMax % 2 === 0 ? [0, axisMax / 2, axisMax] : [0, axisMax];

  return (
    <BlockStack gap="200">
      <svg
        role="img"
        aria-label={t("home.status.chart.title")}
        aria-describedby={descId}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        style={{ maxWidth: WIDTH, height: "auto", display: "block" }}
      >
        <title>{t("home.status.chart.title")}</title>
        <desc id={descId}>{t("home.status.chart.description")}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PLOT.left}
              x2={WIDTH - PLOT.right}
              y1={y(tick)}
              y2={y(tick)}
              stroke={COLORS.axis}
            />
            <text
              x={PLOT.left - 8}
              y={y(tick) + 4}
              textAnchor="end"
              fontSize="12"
              fill={COLORS.label}
            >
              {formatCount(tick, locale)}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const center = PLOT.left + groupWidth * index + groupWidth / 2;
          const bars = [
            { key: "delivered", value: day.delivered, x: center - BAR_GAP / 2 - BAR_WIDTH },
            { key: "failed", value: day.failed, x: center + BAR_GAP / 2 },
          ] as const;
          return (
            <g key={day.end}>
              {bars.map((bar) => (
                <rect
                  key={bar.key}
                  data-series={bar.key}
                  x={bar.x}
                  y={y(bar.value)}
                  width={BAR_WIDTH}
                  height={PLOT.top + plotHeight - y(bar.value)}
                  rx={3}
                  fill={COLORS[bar.key]}
                />
              ))}
              <text
                x={center}
                y={HEIGHT - PLOT.bottom + 20}
                textAnchor="middle"
                fontSize="12"
                fill={COLORS.label}
              >
                {formatDay(day.end, locale)}
              </text>
            </g>
          );
        })}
      </svg>
      <InlineStack gap="400" blockAlign="center">
        <Legend color={COLORS.delivered} label={t("home.status.chart.legendDelivered")} />
        <Legend color={COLORS.failed} label={t("home.status.chart.legendFailed")} />
      </InlineStack>
      <Text as="p" variant="bodySm" tone="subdued">
        {t("home.status.chart.caption")}
      </Text>
      <table style={visuallyHidden}>
        <caption>{t("home.status.chart.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("home.status.chart.day")}</th>
            <th scope="col">{t("home.status.chart.legendDelivered")}</th>
            <th scope="col">{t("home.status.chart.legendFailed")}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.end}>
              <th scope="row">{formatDay(day.end, locale)}</th>
              <td>{formatCount(day.delivered, locale)}</td>
              <td>{formatCount(day.failed, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </BlockStack>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <InlineStack gap="100" blockAlign="center">
      <svg width="12" height="12" aria-hidden="true" focusable="false">
        <rect width="12" height="12" rx="2" fill={color} />
      </svg>
      <Text as="span" variant="bodySm">
        {label}
      </Text>
    </InlineStack>
  );
}
